from typing import TypeAlias

Unit: TypeAlias = str


class Shape:
    """Anything with an area."""

    def area(self) -> float:
        return 0.0


class Square(Shape):
    def __init__(self, side: float) -> None:
        self.side = side

    def area(self) -> float:
        raw = self.side * self.side
        return scale(raw)


def scale(value: float, factor: float = 1.0) -> float:
    result = value * factor
    return result
