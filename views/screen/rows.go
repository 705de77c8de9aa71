package screen

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/views/kit"
)

// Rows is a list of Items in Stack, where loading, an error or an empty
// state takes the list's place (Show).
type Rows[T any] struct {
	*kit.List
	Items []T
	Stack *fyne.Container
}

// NewRows lists items in rows made by row and filled by fill (id is the
// row's place); loading (when not "") is shown until the first items come.
func NewRows[T any](loading string, row func() fyne.CanvasObject, fill func(id int, it T, o fyne.CanvasObject)) *Rows[T] {
	r := &Rows[T]{Stack: container.NewStack()}
	if loading != "" {
		r.Stack.Add(kit.Loading(loading))
	}
	r.List = kit.NewList(func() int { return len(r.Items) }, row, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < len(r.Items) {
			fill(id, r.Items[id], o)
		}
	})
	return r
}

// OnChosen hears the item of each row picked.
func (r *Rows[T]) OnChosen(chosen func(T)) {
	r.OnSelected = func(id widget.ListItemID) {
		if id < len(r.Items) {
			chosen(r.Items[id])
		}
	}
}

// ShowState lists what st is: loading, its error (which stays until a retry
// brings the list), empty, or its items, under partial's words when only n
// items could be read.
func (r *Rows[T]) ShowState(st live.ListState[T], loading string, empty func() fyne.CanvasObject, retry func(), partial func(n int, why string) string) {
	r.Items = nil
	switch {
	case st.Incomplete && len(st.Items) > 0:
		kit.SetBody(r.Stack, kit.Partial(r.List, partial(len(st.Items), app.Describe(st.Err)), st.Loading, retry))
		r.Items = st.Items
	case st.Err != nil && !(st.Loading && len(st.Items) == 0):
		kit.ShowBody(r.Stack, Error(st.Err, retry))
	case len(st.Items) > 0:
		kit.ShowBody(r.Stack, r.List)
		r.Items = st.Items
	case st.Loaded && !st.Loading:
		kit.SetBody(r.Stack, empty())
	default:
		kit.SetBody(r.Stack, kit.Loading(loading))
	}
	r.List.Refresh()
}
