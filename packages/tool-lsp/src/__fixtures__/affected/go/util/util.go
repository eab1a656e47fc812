// Package util holds helpers the other packages call.
package util

// Label is a label for a count of things.
func Label(name string) string {
	return name + "!"
}
