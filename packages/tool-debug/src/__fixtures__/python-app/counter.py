def count(limit):
    total = 0
    for index in range(limit):
        total += index
    return total


def fail():
    try:
        raise ValueError("caught here")
    except ValueError:
        pass


if __name__ == "__main__":
    fail()
    print("count", count(10))
