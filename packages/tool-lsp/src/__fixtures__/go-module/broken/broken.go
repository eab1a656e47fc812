package broken

var count int = "three"
