package main

import (
	"fmt"

	"example.com/shapes/geometry"
)

func main() {
	名前 := "😀 世界"; total := geometry.Area(len(名前), 2)
	square := geometry.Square{Side: 3}
	fmt.Println(total, square.Perimeter(), geometry.Area(1, 1))
}
