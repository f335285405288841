set size 500 10000
set number 500
set transactions 500
set location /tmp/pm
set bias read 5
set bias create 5
set buffering false
set read 4096
set write 4096
set seed 42
show
run
quit
