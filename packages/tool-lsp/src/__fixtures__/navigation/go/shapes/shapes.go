package shapes

// Shape is anything with an area.
type Shape interface {
	Area() int
}

// Measure turns a shape into a number.
type Measure func(s Shape) int

// Celsius is a defined type over a basic one.
type Celsius float64

// Square is a shape with four equal sides.
type Square struct {
	Side int
}

// Area of the square.
func (s Square) Area() int {
	raw := s.Side * s.Side
	return Scale(raw)
}

// Scale scales a value.
func Scale(value int) int {
	factor := 1
	return value * factor
}
