// Package house holds checks over the whole module's code that go test runs
// (make test), for rules the compiler and vet do not enforce.
package house
