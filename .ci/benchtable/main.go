// Command benchtable turns `go test -bench` output into one table, a row a
// benchmark, with every metric it reported (ns/op, MB/s, B/op, allocs/op and
// the custom ones such as p99-redraw-ms or ratio).
package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
)

type row struct {
	pkg, name string
	metrics   map[string]string
}

func main() {
	var rows []row
	units := map[string]bool{}
	pkg := ""
	failed := false
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "pkg:":
			pkg = f[1]
		case strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "--- FAIL"):
			failed = true
			fmt.Fprintln(os.Stderr, line)
		case len(f) >= 4 && strings.HasPrefix(f[0], "Benchmark"):
			r := row{pkg: pkg[strings.LastIndex(pkg, "/")+1:], name: strings.TrimPrefix(f[0], "Benchmark"), metrics: map[string]string{}}
			for i := 2; i+1 < len(f); i += 2 {
				r.metrics[f[i+1]] = f[i]
				units[f[i+1]] = true
			}
			rows = append(rows, r)
		}
	}
	order := []string{"ns/op", "MB/s", "B/op", "allocs/op"}
	var extra []string
	for u := range units {
		if !slices.Contains(order, u) {
			extra = append(extra, u)
		}
	}
	slices.Sort(extra)
	cols := append(order, extra...)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "package\tbenchmark\t")
	for _, c := range cols {
		fmt.Fprintf(w, "%s\t", c)
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t", r.pkg, r.name)
		for _, c := range cols {
			v := r.metrics[c]
			if v == "" {
				v = "-"
			}
			fmt.Fprintf(w, "%s\t", v)
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	if failed {
		os.Exit(1)
	}
}
