package golib

import "testing"

func TestDescribe(t *testing.T) {
	config := &Config{Name: "web", Count: 3, Tags: []string{"a", "b"}}
	if Describe(config) == "" {
		t.Fatal("empty")
	}
}

func TestSum(t *testing.T) {
	if Sum(10) != 45 {
		t.Fatal("wrong")
	}
}
