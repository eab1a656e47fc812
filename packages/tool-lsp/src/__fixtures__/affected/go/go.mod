module example.com/affected

go 1.22
