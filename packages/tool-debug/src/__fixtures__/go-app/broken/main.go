package main

func main() {
	var count int = "not a number"
}
