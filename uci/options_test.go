package uci

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// readmeOptionRows returns the rows of the README's UCI option table,
// each as its name, type, default and range cells (backticks dropped).
func readmeOptionRows(t *testing.T) [][4]string {
	t.Helper()
	text, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(text), "\n## UCI options\n")
	if !ok {
		t.Fatal("README.md has no \"## UCI options\" section")
	}
	var rows [][4]string
	for _, l := range strings.Split(table, "\n") {
		if !strings.HasPrefix(l, "| `") {
			if len(rows) > 0 {
				break // the end of the table
			}
			continue
		}
		cells := strings.Split(strings.TrimPrefix(l, "|"), "|")
		if len(cells) < 5 {
			t.Fatalf("README option row %q: %d cells, want 5", l, len(cells))
		}
		var row [4]string
		for i := range row {
			row[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		rows = append(rows, row)
	}
	return rows
}

// readmeCells is how the README's table shows an option: its name, type,
// default ("empty" for an empty string) and range ("min–max" for a spin).
func readmeCells(o *option) [4]string {
	typ := map[optionType]string{optSpin: "spin", optCheck: "check", optButton: "button", optString: "string"}[o.typ]
	def, rng := o.def, ""
	if o.typ == optString && def == "" {
		def = "empty"
	}
	if o.typ == optSpin {
		rng = strconv.Itoa(o.min) + "–" + strconv.Itoa(o.max)
	}
	return [4]string{o.name, typ, def, rng}
}

// The README's option table lists the declared options (the tune build's
// parameters aside), in their order, with their types, defaults and
// ranges.
func TestREADMEOptionTable(t *testing.T) {
	var want [][4]string
	for i := range optionList {
		if !optionList[i].tune {
			want = append(want, readmeCells(&optionList[i]))
		}
	}
	got := readmeOptionRows(t)
	byName := map[string][4]string{}
	var order []string
	for _, r := range got {
		if _, dup := byName[r[0]]; dup {
			t.Errorf("README.md lists %s twice", r[0])
		}
		byName[r[0]] = r
		order = append(order, r[0])
	}
	var wantOrder []string
	for _, w := range want {
		wantOrder = append(wantOrder, w[0])
		r, ok := byName[w[0]]
		if !ok {
			t.Errorf("README.md lacks option %s %v", w[0], w)
		} else if r != w {
			t.Errorf("README.md says %v; the declaration says %v", r, w)
		}
		delete(byName, w[0])
	}
	for name := range byName {
		t.Errorf("README.md lists %s, which is not declared", name)
	}
	if !t.Failed() && !slices.Equal(order, wantOrder) {
		t.Errorf("README.md lists the options in the order %q; the declarations are in the order %q", order, wantOrder)
	}
}

// countingSearcher counts SetOptions calls and searches until stopped.
type countingSearcher struct{ setOptions int }

func (f *countingSearcher) SetOptions(search.Options) { f.setOptions++ }
func (f *countingSearcher) Clear()                    {}
func (f *countingSearcher) HashFull() int             { return 0 }
func (f *countingSearcher) SearchWith(ctl *search.Control, pos *v.Position, lim search.Limits, cb search.Callbacks) search.Result {
	for !ctl.Stopped() {
		time.Sleep(time.Millisecond)
	}
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	return search.Result{Best: ml.Moves[0], Depth: 1}
}

// Every declared spin and check option, whatever its declaration: its
// default, sent under any case of its name, is accepted and leaves the
// settings at their defaults; a spin value out of range is clamped with
// an info string and a bad value refused; an option is declared as a
// search option exactly when it changes the search's options; a changed
// search option reaches the searcher at once between searches and after
// the search during one, and an option the search does not read never
// does.
func TestDeclaredOptionsApply(t *testing.T) {
	t.Setenv("ROCHADE_MEMORY_MB", "4096")
	for i := range optionList {
		o := &optionList[i]
		if o.tune || (o.typ != optSpin && o.typ != optCheck) {
			continue
		}
		t.Run(o.name, func(t *testing.T) {
			rec := &countingSearcher{}
			out := &syncBuffer{}
			s := NewSession(out, Config{NewSearcher: func(search.Options) Searcher { return rec }})
			defer s.Close()
			output := func() string {
				s.Handle("isready")
				s.out.Flush()
				text := out.String()
				out.mu.Lock()
				out.buf.Reset()
				out.mu.Unlock()
				return text
			}
			set := func(value string) string {
				s.Handle("setoption name " + strings.ToUpper(o.name) + " value " + value)
				return output()
			}
			if text := set(o.def); strings.Contains(text, "error") || s.set != defaultSettings() {
				t.Errorf("setting the default %s: %q, settings %+v", o.def, text, s.set)
			}
			other, bad := strconv.FormatBool(o.def != "true"), "maybe"
			if o.typ == optSpin {
				other, bad = strconv.Itoa(o.min), "ten"
				if o.def == other {
					other = strconv.Itoa(o.min + 1)
				}
				if text := set(strconv.Itoa(o.max + 1)); !strings.Contains(text, "info string "+o.name+" "+strconv.Itoa(o.max+1)+" is above the maximum; set to ") {
					t.Errorf("%s max+1: %q", o.name, text)
				}
				if text := set(strconv.Itoa(o.min - 1)); !strings.Contains(text, "info string "+o.name+" "+strconv.Itoa(o.min-1)+" is below the minimum; set to "+strconv.Itoa(o.min)) {
					t.Errorf("%s min-1: %q", o.name, text)
				}
				set(o.def)
			}
			before := s.set
			if text := set(bad); !strings.Contains(text, "info string error: setoption "+o.name+": value \""+bad+"\"") || s.set != before {
				t.Errorf("%s %s: %q", o.name, bad, text)
			}

			calls := rec.setOptions
			set(other)
			if s.set == before {
				t.Fatalf("%s %s changed no setting", o.name, other)
			}
			if changed := s.set.searchOptions() != before.searchOptions(); changed != o.engine {
				t.Errorf("%s: declared as a search option %v, but setting it changes the search's options %v", o.name, o.engine, changed)
			}
			if want := calls + b2i(o.engine); rec.setOptions != want {
				t.Errorf("%s %s between searches: %d SetOptions calls, want %d", o.name, other, rec.setOptions-calls, want-calls)
			}
			s.Handle("go infinite")
			calls = rec.setOptions
			text := set(o.def)
			if rec.setOptions != calls || strings.Contains(text, "will be applied") != o.engine {
				t.Errorf("%s set during a search: %d SetOptions calls, output %q", o.name, rec.setOptions-calls, text)
			}
			s.Handle("stop")
			s.wait(0)
			s.Handle("isready")
			if want := calls + b2i(o.engine); rec.setOptions != want {
				t.Errorf("%s after the search: %d SetOptions calls, want %d", o.name, rec.setOptions-calls, want-calls)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
