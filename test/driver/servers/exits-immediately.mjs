// Exits at once, successfully, without a word.
process.exit(0);
