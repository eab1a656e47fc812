package main

import "fmt"

func main() {
	name := "world"
	fmt.Printf("hello %d\n", name)
}
