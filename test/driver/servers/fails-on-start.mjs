// Fails on start: explains on stderr, exits with code 3.
console.error("zoo: cannot start: ZOO_CONFIG is not set");
process.exit(3);
