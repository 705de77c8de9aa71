package views

import "github.com/agentdesk/agentdesk/client/demoservice"

func demoFaultsAllFail() demoservice.Faults { return demoservice.Faults{Fail500: 1000} }
