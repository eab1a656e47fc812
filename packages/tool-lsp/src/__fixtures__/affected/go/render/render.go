// Package render uses util from another package.
package render

import "example.com/affected/util"

// First is the first label.
var First = util.Label("first")
