export const note = 1;
