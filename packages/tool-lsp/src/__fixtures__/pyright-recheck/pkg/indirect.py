from pkg.caller_0 import label

SHOUT = label("x").upper()
