# The README's flag table ("| flag | meaning | commands |") as an mdoc FLAGS section for
# clawnet(1): one item per row, its meaning and the commands that take it, so the man page
# says what the README says. Used by scripts/manpages; FlagTableTests checks both against
# the code.
#
#   awk -f scripts/lib/flag-table.awk README.md
function text(cell) {
    gsub(/`/, "", cell)
    gsub(/\\/, "\\e", cell)
    sub(/^ +/, "", cell); sub(/ +$/, "", cell)
    if (cell ~ /^[.\047]/) cell = "\\&" cell
    return cell
}
/^\| flag \| meaning \| commands \|/ { table = 1; next }
table && /^\| ---/ { next }
table && /^\|/ {
    n = split($0, cells, "|")
    rows = rows ".It Sy " text(cells[2]) "\n" text(cells[3]) ".\n.br\nCommands: " text(cells[4]) ".\n"
    next
}
table { table = 0 }
END {
    if (rows == "") { print "flag-table.awk: no flag table in the input" > "/dev/stderr"; exit 1 }
    print ".Sh FLAGS"
    print "One name, one meaning in every command. A duration carries its unit (500ms, 5s, 1m30s, 1h);"
    print "- reads standard input, and a pipe is read wherever a file is read; a file you name that is"
    print "missing is a usage error (exit 2)."
    print ".Bl -tag -width Ds"
    printf "%s", rows
    print ".El"
}
