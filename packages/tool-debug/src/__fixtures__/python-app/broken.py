print("never printed"
def nope(:
