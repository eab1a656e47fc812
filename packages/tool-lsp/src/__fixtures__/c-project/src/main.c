#include <stdio.h>
#include "geometry.h"

int main(void) {
  int side = 3;
  const char *label = "😀 世界"; int total = area(side, 4);
  struct square shape = {2};
  printf("%s %d %d\n", label, total, area(shape.side, shape.side));
  return 0;
}
