package golib

import (
	"fmt"
	"os"
)

type Config struct {
	Name  string
	Count int
	Tags  []string
}

func Describe(config *Config) string {
	label := fmt.Sprintf("%s:%d:%s", config.Name, config.Count, os.Getenv("RUNBOUND_FLAVOUR"))
	return label
}

func Sum(limit int) int {
	total := 0
	for index := 0; index < limit; index++ {
		total += index
	}
	return total
}
