#include <stdio.h>

static int sum(int limit) {
  int total = 0;
  for (int index = 0; index < limit; index++) {
    total += index;
  }
  return total;
}

int main(void) {
  printf("sum %d\n", sum(10));
  return 0;
}
