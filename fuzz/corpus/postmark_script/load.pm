load missing.pm
set location +/tmp/a 2
run
