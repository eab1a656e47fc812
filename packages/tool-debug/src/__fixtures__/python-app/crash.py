def divide(left, right):
    return left / right


print("about to divide")
divide(1, 0)
