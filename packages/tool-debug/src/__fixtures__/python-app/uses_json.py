import json

print(json.dumps({"a": 1}))
