#include <stdio.h>
#include <unistd.h>

static int add(int left, int right) {
  int total = left + right;
  return total;
}

int main(int argc, char **argv) {
  int result = add(2, 3);
  printf("result %d\n", result);
  fflush(stdout);
  if (argc > 1) {
    for (;;) sleep(1);
  }
  return 0;
}
