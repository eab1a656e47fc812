export { default } from "@runbound/test-config/vitest";
