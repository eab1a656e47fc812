#ifndef GEOMETRY_H
#define GEOMETRY_H

/** Returns the area of a rectangle of the given width and height. */
int area(int width, int height);

struct square {
  int side;
};

#endif
