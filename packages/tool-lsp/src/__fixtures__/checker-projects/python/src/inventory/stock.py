def count(items: list[str]) -> int:
    """How many items are in stock."""
    return len(items)


shown: str = count(["a", "b"])
print(undefined_name)
