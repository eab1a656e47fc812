package geometry

// Area returns the area of a rectangle of the given width and height.
func Area(width, height int) int {
	return width * height
}

// Square is a shape with four equal sides.
type Square struct {
	Side int
}

// Perimeter returns the length of the square's outline.
func (s Square) Perimeter() int {
	return 4 * s.Side
}
