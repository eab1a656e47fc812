def label(name: str) -> str:
    """A label for a count of things."""
    return name + "!"
