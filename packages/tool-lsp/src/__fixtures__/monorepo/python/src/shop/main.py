from shop.cart import total

print(total([1.0, 2.5]))
