# comment
set size 1000,2000
set subdirectories 10
set report verbose
?
help
exit
