package main

import (
	"fmt"
	"os"
	"time"
)

func add(left int, right int) int {
	total := left + right
	return total
}

func main() {
	result := add(2, 3)
	fmt.Println("result", result)
	if len(os.Args) > 1 {
		for {
			time.Sleep(time.Second)
		}
	}
}
