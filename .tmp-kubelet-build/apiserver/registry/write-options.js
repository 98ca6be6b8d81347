export {};
//# sourceMappingURL=write-options.js.map