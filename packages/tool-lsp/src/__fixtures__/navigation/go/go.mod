module example.com/navigation

go 1.26
