export const unrelated = 1;
