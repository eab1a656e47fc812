import sys

executable = sys.executable
print(executable)
