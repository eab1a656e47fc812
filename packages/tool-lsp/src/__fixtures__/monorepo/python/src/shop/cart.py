def total(prices: list[float]) -> float:
    """Sum the prices in a cart."""
    return sum(prices)
