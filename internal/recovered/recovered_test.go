package recovered

import (
	"bytes"
	"errors"
	"log"
	"strings"
	"testing"
)

func read(what string, fn func()) (err error) {
	defer func() {
		if e := From(what, recover()); e != nil {
			err = e
		}
	}()
	fn()
	return nil
}

func TestAPanicBecomesAnErrorAndTheLogKeepsNoData(t *testing.T) {
	var buf bytes.Buffer
	was := log.Writer()
	log.SetOutput(&buf)
	defer log.SetOutput(was)

	if err := read("a sheet", func() {}); err != nil {
		t.Fatalf("nothing panicked, got %v", err)
	}
	err := read("a streamed event", func() { panic("sk-secret-key-from-the-server") })
	var re *Error
	if !errors.As(err, &re) || re.What != "a streamed event" {
		t.Fatalf("want a recovered *Error, got %v", err)
	}
	if strings.Contains(buf.String(), "sk-secret") || strings.Contains(err.Error(), "sk-secret") {
		t.Fatalf("the panic's value reached the log or the error:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), "recovered_test.go") {
		t.Fatalf("the log should hold the stack:\n%s", buf.String())
	}

	s := []int{1}
	i := 3
	err = read("a picture", func() { _ = s[i] })
	if err == nil || !strings.Contains(err.Error(), "index out of range") {
		t.Fatalf("a runtime error keeps the runtime's words, got %v", err)
	}
}
