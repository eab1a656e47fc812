module example.com/vet

go 1.22
