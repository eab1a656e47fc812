def label(name: str) -> str:
    return name + "!"
