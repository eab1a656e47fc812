import sys


def add(left, right):
    total = left + right
    return total


def main():
    numbers = list(range(100))
    label = "x" * 1000

    result = add(2, 3)
    print(f"result {result} {len(numbers)} {len(label)}")
    print("to stderr", file=sys.stderr)
    return result


if __name__ == "__main__":
    main()
