package main

import (
	"fmt"

	"example.com/navigation/shapes"
)

func describe(s shapes.Shape) string {
	return fmt.Sprint("area ", shapes.Scale(s.Area()))
}

func main() {
	square := shapes.Square{Side: 2}
	fmt.Println(describe(square), shapes.Scale(3))
}
