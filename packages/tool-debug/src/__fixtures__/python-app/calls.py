def add(a, b):
    return a + b


def boom(x):
    raise ValueError("no %d" % x)


def main():
    total = 0
    for index in range(50):
        total = add(total, index)
    try:
        boom(7)
    except ValueError:
        pass
    return total


if __name__ == "__main__":
    print("total", main())
