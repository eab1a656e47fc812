package main

import (
	"fmt"

	"example.com/affected/util"
)

func main() {
	fmt.Println(util.Label("second"))
}
