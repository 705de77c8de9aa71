package screen

import (
	"slices"

	"github.com/agentdesk/agentdesk/views/kit"
)

// Choice is a select whose labels stand for values, read and set as the
// service spells them (two look-alike labels stay apart). Select is what
// is shown.
type Choice struct {
	Select *kit.Select
	Values []string
}

// NewChoice offers labels standing for values, in order; changed hears each pick.
func NewChoice(labels, values []string, changed func()) Choice {
	sel := kit.NewSelect(labels, nil)
	if changed != nil {
		sel.OnChanged = func(string) { changed() }
	}
	return Choice{Select: sel, Values: values}
}

// Value is the value chosen, "" when none is.
func (c Choice) Value() string {
	if i := c.Select.SelectedIndex(); i >= 0 && i < len(c.Values) {
		return c.Values[i]
	}
	return ""
}

// SetValue chooses v, or nothing when v is none of the values.
func (c Choice) SetValue(v string) {
	if i := slices.Index(c.Values, v); i >= 0 {
		c.Select.SetSelectedIndex(i)
	} else if c.Select.Selected != "" {
		c.Select.ClearSelected()
	}
}
