// A worker that writes a little output, complains on stderr and exits with code 3.
process.stdout.write("partial work\n");
process.stderr.write("first complaint\nthe parser broke on line 7\n");
process.exit(3);
