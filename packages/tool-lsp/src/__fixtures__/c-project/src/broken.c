#include "geometry.h"

int broken(void) {
  return area(1, 2) + missing_value;
}
