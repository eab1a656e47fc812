from shop.shapes import Shape, Square, scale


def describe(shape: Shape) -> str:
    return f"area {scale(shape.area())}"


def report() -> list[str]:
    square = Square(2)
    return [describe(square), str(scale(3))]
