from pkg.util import label

FIRST = label("first")
SECOND = label("second")
