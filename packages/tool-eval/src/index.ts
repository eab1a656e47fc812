// The package's plugin, resources and factories are exported from here as they land.
export {};
