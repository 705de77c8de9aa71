; Agent Desk's Windows setup (NSIS 3). make package-setup builds it:
;
;   makensis -DVERSION=0.1.0 -DBUILD=1 -DEXE=/abs/agentdesk.exe \
;            -DOUTFILE=/abs/AgentDesk-0.1.0-setup.exe assets/windows/agentdesk.nsi
;
; What a user gets: Agent Desk for them alone by default, with no
; administrator needed ($LOCALAPPDATA\Programs\Agent Desk, HKCU), or for
; everyone on the computer ($PROGRAMFILES64\Agent Desk, HKLM), for which
; setup asks Windows for administrator rights then and only then. A
; Start-menu shortcut, a desktop shortcut unless unticked, an entry in
; "Apps & features", and an uninstaller that keeps the user's settings and
; history unless asked to remove them. A newer setup run over an older
; install replaces the program in place; the data is never touched. An
; open Agent Desk is closed first (see CloseApp).
;
; VERSION is FyneApp.toml's x.y.z and BUILD its build number: Windows shows
; x.y.z.BUILD as the setup's file version.
;
; Command line (the setup):
;   /S                 silent: the defaults, or what an earlier install chose
;   /ALLUSERS          for everyone (silent: from an elevated prompt, else exit code 740)
;   /CURRENTUSER       for the user running setup
;   /NODESKTOP         no desktop shortcut (/DESKTOP: one)
;   /D=C:\Some\Folder  where to install (last, unquoted; NSIS's own switch)
; The organisation's settings, for IT (README, "For IT"): setup writes them to
; %ProgramData%\Agent Desk\policy.json, for everyone on the computer, replacing
; the file there. Any of these means /ALLUSERS (silent: from an elevated
; prompt, else exit code 740). Either a policy file IT wrote:
;   /POLICY=C:\IT\policy.json                  copied as it is
; or the settings one by one, any of them:
;   /SERVICE=https://agents.acme.example/api   an account: its address,
;   /ACCOUNTNAME=Acme                          its name (else the server's),
;   /WORKSPACE=123                             its workspace (a whole number)
;   /LANGUAGE=pt-BR                            en, pt-BR or es
;   /PROXY=http://proxy.acme.example:3128      the proxy every call goes through;
;                                              /PROXY=none: none; /PROXY=system:
;                                              the system's settings
;   /PAC=http://wpad.acme.example/proxy.pac    or the proxy script (PAC) that says
;   /CERTIFICATE=C:\IT\acme-ca.pem             an authority to trust (PEM or DER),
;                                              copied as company-ca.pem next to
;                                              policy.json, which lists it
;   /LOCK                                      staff cannot change the account,
;                                              language and proxy given
; A value with spaces goes in double quotes, around the option or after its
; = ("/ACCOUNTNAME=Acme Brasil", /POLICY="C:\IT files\policy.json"). Before
; it changes anything, setup refuses: a value with a double quote, a control
; character, or a backslash (but in the two file paths); an address that
; does not start with http:// or https:// and name a server, or holds a user
; name; a file that is not there; an option given twice or with no value;
; /ACCOUNTNAME or /WORKSPACE without /SERVICE, /PROXY with /PAC, /LOCK with
; nothing to lock, /POLICY with any of the others, any of them with
; /CURRENTUSER, or a command line too long to read whole (over 1023
; characters). A refusal ends setup with exit code 87 (ERROR_INVALID_PARAMETER)
; and writes nothing; without /S, a message says why.
; The uninstaller (uninstall.exe in the install folder):
;   /S                 silent; keeps settings and history
;   /REMOVEDATA        also remove settings, history and the saved API keys
;   /ALLUSERS          the install for everyone (its registry entry passes it;
;                      silent: from an elevated prompt, else exit code 740)
; It never removes the organisation's settings (policy.json, company-ca.pem):
; they belong to IT, who remove or replace them, and stay for the next install.
;
; The icons (agentdesk.ico) and the picture on the first and last page
; (wizard.bmp) come from the menu icons; after changing the icon, with
; ImageMagick, from the repository's top folder:
;   H=assets/linux/icons/hicolor; convert $H/{16x16,24x24,32x32,48x48,64x64,256x256}/apps/agentdesk.png assets/windows/agentdesk.ico
;   convert -size 164x314 gradient:'#3949AB-#00897B' \( $H/128x128/apps/agentdesk.png -resize 96x96 \) \
;     -geometry +34+48 -composite -colors 256 -type Palette BMP3:assets/windows/wizard.bmp

Unicode true
Target amd64-unicode
ManifestDPIAware true
RequestExecutionLevel user
SetCompressor /SOLID lzma

!ifndef VERSION
  !error "VERSION is not set: makensis -DVERSION=x.y.z (make package-setup passes FyneApp.toml's)"
!endif
!ifndef BUILD
  !error "BUILD is not set: makensis -DBUILD=n (make package-setup passes FyneApp.toml's)"
!endif
!ifndef EXE
  !error "EXE is not set: makensis -DEXE=/path/to/agentdesk.exe (make package-windows builds it)"
!endif
!ifndef OUTFILE
  !define OUTFILE "AgentDesk-${VERSION}-setup.exe"
!endif

!define APP        "Agent Desk"
!define PUBLISHER  "Agent Desk authors"
!define WEBSITE    "https://github.com/agentdesk/agentdesk"
!define ABOUT      "Run your organisation's AI agents from your desktop"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\AgentDesk"
; Agent Desk's own folder name inside each base folder (storage.AppDirName),
; and the keyring service its API keys are saved under (Windows Credential
; Manager targets "agentdesk:<account>").
!define DATA_DIR   "agentdesk"
!define KEY_FILTER "agentdesk:*"
; Fyne's window class (GLFW) and Agent Desk's window title.
!define WINDOW_CLASS "GLFW30"
; Windows' "The requested operation requires elevation".
!define ERROR_ELEVATION_REQUIRED 740
; Windows' "The parameter is incorrect": setup refused its command line.
!define ERROR_INVALID_PARAMETER 87
; The organisation's settings, in %ProgramData%\Agent Desk (Agent Desk's
; storage.DefaultPolicyFile), and the authority /CERTIFICATE= copies there.
!define POLICY_FILE "policy.json"
!define POLICY_CERT "company-ca.pem"
; MoveFileEx: replace the file there, and return once it is on disk.
!define MOVEFILE_REPLACE_WRITE 9
; OpenProcess rights to wait for a process and end it; WaitForSingleObject's
; "timed out".
!define SYNCHRONIZE_TERMINATE 0x00100001
!define WAIT_TIMEOUT 258

!include MUI2.nsh
!include LogicLib.nsh
!include FileFunc.nsh
!include nsDialogs.nsh
!include WinMessages.nsh

Name "${APP}"
OutFile "${OUTFILE}"
BrandingText "${APP} ${VERSION}"
; No InstallDir: $INSTDIR stays empty unless /D= names a folder, and
; .onInit picks the folder for the install mode.
ShowInstDetails hide
ShowUninstDetails hide

Var AllUsers   ; 1: everyone (Program Files, HKLM); 0: the user running setup
Var ModeFixed  ; 1: /ALLUSERS or /CURRENTUSER decided it
Var WantDesktop ; 1: a shortcut on the desktop
Var Upgrade    ; 1: Agent Desk is installed in this mode already: same folder, no folder page
Var CmdDir     ; the folder /D= named, if any
Var RemoveData ; uninstaller: 1 removes settings, history and saved keys too
Var CmdArgs    ; setup's command line after the program's name (CmdOption)
Var Policy     ; 1: the command line gives the organisation's settings
Var PolicyArgs ; those options again, checked, for the elevated restart
Var PolicyFile ; /POLICY=: the file to copy, as a full path
Var PolicyService   ; /SERVICE=, /ACCOUNTNAME=, /WORKSPACE=, /LANGUAGE=
Var PolicyName
Var PolicyWorkspace
Var PolicyLanguage
Var PolicyProxyMode ; system, none, manual (/PROXY=) or pac (/PAC=); "": not set
Var PolicyProxyURL
Var PolicyCert ; /CERTIFICATE=: the file to copy, as a full path
Var PolicyLock ; JSON's true (/LOCK) or false
Var RadioAll
Var DesktopBox
Var DataBox

; ---- Pages ------------------------------------------------------------------

!define MUI_ICON   "agentdesk.ico"
!define MUI_UNICON "agentdesk.ico"
!define MUI_WELCOMEFINISHPAGE_BITMAP "wizard.bmp"
!define MUI_ABORTWARNING

!define MUI_WELCOMEPAGE_TITLE "Welcome to ${APP}"
!define MUI_WELCOMEPAGE_TEXT "This installs ${APP} ${VERSION} on this computer.$\r$\n$\r$\nIf ${APP} is installed already, it is updated; your settings, accounts and history stay as they are.$\r$\n$\r$\n$_CLICK"
!insertmacro MUI_PAGE_WELCOME
Page custom OptionsPage OptionsLeave
!define MUI_PAGE_CUSTOMFUNCTION_PRE DirectoryPre
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!define MUI_FINISHPAGE_RUN
!define MUI_FINISHPAGE_RUN_TEXT "Start ${APP} now"
!define MUI_FINISHPAGE_RUN_FUNCTION StartApp
!insertmacro MUI_PAGE_FINISH

UninstPage custom un.RemovePage un.RemovePageLeave
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"

VIProductVersion "${VERSION}.${BUILD}"
VIFileVersion "${VERSION}.${BUILD}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "ProductName" "${APP}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileVersion" "${VERSION}.${BUILD}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileDescription" "${APP} setup"
VIAddVersionKey /LANG=${LANG_ENGLISH} "CompanyName" "${PUBLISHER}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "LegalCopyright" "${PUBLISHER}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "OriginalFilename" "AgentDesk-${VERSION}-setup.exe"

; ---- Shared by setup and uninstaller -----------------------------------------

; IsAdmin: $0 = 1 when this process has administrator rights (elevated).
!macro IS_ADMIN un
Function ${un}IsAdmin
  UserInfo::GetAccountType
  Pop $0
  ${If} $0 == "Admin"
    StrCpy $0 1
  ${Else}
    StrCpy $0 0
  ${EndIf}
FunctionEnd
!macroend
!insertmacro IS_ADMIN ""
!insertmacro IS_ADMIN "un."

; CloseApp: makes sure agentdesk.exe in $INSTDIR can be replaced or removed.
; Each open Agent Desk window is asked to close, as its close button does,
; so the app saves what the user typed; a program that has not ended 15
; seconds later is ended (its window is gone and its data saved by then).
; Then the program file is deleted, retrying while Windows still holds it
; (Agent Desk open for another user of the computer, say). Silent runs close
; the app without asking.
!macro CLOSE_APP un
Function ${un}CloseApp
  Push $R0
  Push $R1
  Push $R2
  Push $R3
  StrCpy $R0 0
  ${Do}
    FindWindow $R1 "${WINDOW_CLASS}" "${APP}"
    ${If} $R1 = 0
    ${OrIf} $R0 >= 10
      ${Break}
    ${EndIf}
    ${If} $R0 = 0
      MessageBox MB_OKCANCEL|MB_ICONINFORMATION "${APP} is open and is closed now. What you typed is kept." /SD IDOK IDOK +2
      Abort "${APP} is still open."
    ${EndIf}
    System::Call 'user32::GetWindowThreadProcessId(p R1, *i .R2) i'
    System::Call 'kernel32::OpenProcess(i ${SYNCHRONIZE_TERMINATE}, i 0, i R2) p .R3'
    SendMessage $R1 ${WM_CLOSE} 0 0 /TIMEOUT=5000
    ${If} $R3 P<> 0
      System::Call 'kernel32::WaitForSingleObject(p R3, i 15000) i .R2'
      ${If} $R2 = ${WAIT_TIMEOUT}
        System::Call 'kernel32::TerminateProcess(p R3, i 1)'
        System::Call 'kernel32::WaitForSingleObject(p R3, i 5000)'
      ${EndIf}
      System::Call 'kernel32::CloseHandle(p R3)'
    ${Else}
      Sleep 1000
    ${EndIf}
    IntOp $R0 $R0 + 1
  ${Loop}

  StrCpy $R0 0
  ${Do}
    ClearErrors
    Delete "$INSTDIR\agentdesk.exe"
    ${IfNot} ${Errors}
      ${Break}
    ${EndIf}
    IntOp $R0 $R0 + 1
    ${If} $R0 >= 20 ; 10 seconds
      MessageBox MB_RETRYCANCEL|MB_ICONEXCLAMATION "${APP} is still running (perhaps for another user of this computer), so it cannot be replaced.$\r$\n$\r$\nClose ${APP}, then click Retry." /SD IDCANCEL IDRETRY +2
      Abort "${APP} is still running."
      StrCpy $R0 0
    ${EndIf}
    Sleep 500
  ${Loop}
  Pop $R3
  Pop $R2
  Pop $R1
  Pop $R0
FunctionEnd
!macroend
!insertmacro CLOSE_APP ""
!insertmacro CLOSE_APP "un."

; ---- The command line and the organisation's settings ------------------------

; CmdOption: looks for the option named on the stack ("/NAME") among the
; words of setup's command line ($CmdArgs): $1 = how many times it is there,
; as /NAME or /NAME=value, and $0 = the first one's value ("" for none).
; Words are separated by spaces; double quotes around a word or around its
; value keep the spaces in it and are dropped ("/POLICY=C:\IT files\p.json",
; /POLICY="C:\IT files\p.json"); a quote anywhere else stays in the value
; (for the checks to refuse). Unlike FileFunc's GetOptions, a / or ' in a
; value (https://agents.acme.example/api, O'Neill) neither ends the value
; nor counts as an option.
Function CmdOption
  Exch $2 ; the name
  Push $3 ; where in $CmdArgs
  Push $4 ; one character
  Push $5 ; the word
  Push $6 ; 1: inside double quotes
  Push $7 ; the name's length
  Push $8
  StrLen $7 $2
  StrCpy $0 ""
  StrCpy $1 0
  StrCpy $3 0
  ${Do}
    StrCpy $5 ""
    StrCpy $6 0
    ${Do}
      StrCpy $4 $CmdArgs 1 $3
      ${If} $4 == ""
        ${Break}
      ${EndIf}
      IntOp $3 $3 + 1
      ${If} $6 = 0
        ${If} $4 == " "
        ${OrIf} $4 == "$\t"
          ${If} $5 == "" ; spaces before the word
            ${Continue}
          ${EndIf}
          ${Break}
        ${EndIf}
      ${EndIf}
      ${If} $4 == "$\""
        IntOp $6 1 - $6
      ${EndIf}
      StrCpy $5 "$5$4"
    ${Loop}
    ${If} $5 == ""
      ${Break}
    ${EndIf}
    ; "/NAME=value": /NAME=value
    StrCpy $4 $5 1
    StrCpy $6 $5 1 -1
    StrLen $8 $5
    ${If} $4 == "$\""
    ${AndIf} $6 == "$\""
    ${AndIf} $8 > 1
      StrCpy $5 $5 -1 1
    ${EndIf}
    StrCpy $4 $5 $7
    StrCpy $6 $5 1 $7
    ${If} $4 == $2 ; whatever the case, as for GetOptions
      ${If} $6 == ""
      ${OrIf} $6 == "="
        IntOp $1 $1 + 1
        ${If} $1 = 1
          IntOp $4 $7 + 1
          StrCpy $0 $5 "" $4
          ; /NAME="value": value
          StrCpy $4 $0 1
          StrCpy $6 $0 1 -1
          StrLen $8 $0
          ${If} $4 == "$\""
          ${AndIf} $6 == "$\""
          ${AndIf} $8 > 1
            StrCpy $0 $0 -1 1
          ${EndIf}
        ${EndIf}
      ${EndIf}
    ${EndIf}
  ${Loop}
  Pop $8
  Pop $7
  Pop $6
  Pop $5
  Pop $4
  Pop $3
  Pop $2
FunctionEnd
!macro CMD_OPTION name
  Push "${name}"
  Call CmdOption
!macroend

; Refuse: ends setup over its command line before anything is written, with
; exit code 87; the message on the stack says why (shown unless silent).
Function Refuse
  Exch $0
  SetErrorLevel ${ERROR_INVALID_PARAMETER}
  MessageBox MB_OK|MB_ICONSTOP "$0$\r$\n$\r$\nSetup has changed nothing." /SD IDOK
  Quit
FunctionEnd
!macro REFUSE why
  Push `${why}`
  Call Refuse
!macroend

; HasAny: $4 = 1 when the text $0 holds one of the characters $5, else 0.
Function HasAny
  System::Call 'shlwapi::StrPBrkW(w r0, w r5) p .r4'
  ${If} $4 P<> 0
    StrCpy $4 1
  ${EndIf}
FunctionEnd

; CheckText: refuses the value $0 of option $1 when it is empty or holds a
; double quote or a control character (policy.json would need them escaped),
; or one of the characters $2 (a backslash, but in file paths).
Function CheckText
  ${If} $0 == ""
    !insertmacro REFUSE "$1 needs a value: $1=..."
  ${EndIf}
  ; A double quote, and the control characters 1 to 31 and 127.
  StrCpy $5 "$\"$2"
  StrCpy $4 1
  ${Do}
    IntFmt $3 "%c" $4
    StrCpy $5 "$5$3"
    IntOp $4 $4 + 1
  ${LoopWhile} $4 < 32
  IntFmt $3 "%c" 127
  StrCpy $5 "$5$3"
  Call HasAny
  ${If} $4 = 1
    ${If} $2 == "\ "
      StrCpy $5 "a space, a backslash, a double quote or a control character"
    ${ElseIf} $2 == "\"
      StrCpy $5 "a backslash, a double quote or a control character"
    ${Else}
      StrCpy $5 "a double quote, a control character, * or ?"
    ${EndIf}
    !insertmacro REFUSE "$1=$0 is refused: it holds $5."
  ${EndIf}
FunctionEnd

; CheckAddress: refuses the value $0 of option $1 unless it is an http:// or
; https:// address that names a server, with no user name or password in it
; (as Agent Desk's policy does).
Function CheckAddress
  StrCpy $2 "\ "
  Call CheckText
  StrCpy $3 $0 7
  StrCpy $4 $0 8
  ${If} $3 == "http://"
    StrCpy $3 $0 "" 7
  ${ElseIf} $4 == "https://"
    StrCpy $3 $0 "" 8
  ${Else}
    !insertmacro REFUSE "$1=$0 is refused: it must be an address starting with https:// or http://."
  ${EndIf}
  ; The server: up to the first /, ? or #.
  StrCpy $4 0
  ${Do}
    StrCpy $5 $3 1 $4
    ${If} $5 == ""
    ${OrIf} $5 == "/"
    ${OrIf} $5 == "?"
    ${OrIf} $5 == "#"
      ${Break}
    ${EndIf}
    IntOp $4 $4 + 1
  ${Loop}
  StrCpy $3 $3 $4
  ${If} $3 == ""
    !insertmacro REFUSE "$1=$0 is refused: it names no server."
  ${EndIf}
  Push $0
  StrCpy $0 $3
  StrCpy $5 "@"
  Call HasAny
  Pop $0
  ${If} $4 = 1
    !insertmacro REFUSE "$1=$0 is refused: it must not hold a user name or password."
  ${EndIf}
FunctionEnd

; CheckFile: refuses the file path $0 of option $1 unless a file is there;
; $0 = its full path (setup works in other folders later, and the elevated
; restart may start in another).
Function CheckFile
  StrCpy $2 "*?" ; wildcards would make FileExists look for other files
  Call CheckText
  ${If} ${FileExists} "$0\*.*"
  ${OrIfNot} ${FileExists} "$0"
    !insertmacro REFUSE "$1=$0 is refused: there is no such file."
  ${EndIf}
  GetFullPathName $0 $0
FunctionEnd

; POLICY_OPTION NAME VAR: VAR = the value of NAME= on the command line, ""
; when not there; refused when given twice or with no value. $Policy = 1
; when it is there; $1 = 1 too.
!macro POLICY_OPTION name var
  !insertmacro CMD_OPTION "${name}"
  StrCpy ${var} $0
  ${If} $1 > 1
    !insertmacro REFUSE "${name} is given more than once."
  ${ElseIf} $1 = 1
    StrCpy $Policy 1
    !if "${name}" != "/LOCK"
      ${If} $0 == ""
        !insertmacro REFUSE "${name} needs a value: ${name}=..."
      ${EndIf}
    !endif
  ${EndIf}
!macroend

; PolicyOptions: the organisation's settings on the command line (see the
; top of this file) into the Policy variables, checked; a refused one ends
; setup (Refuse). $Policy = 1 when there are any; $PolicyArgs = them again,
; for the elevated restart.
Function PolicyOptions
  StrCpy $Policy 0
  StrCpy $PolicyArgs ""
  !insertmacro POLICY_OPTION "/POLICY" $PolicyFile
  StrCpy $R4 $Policy
  StrCpy $Policy 0
  !insertmacro POLICY_OPTION "/SERVICE" $PolicyService
  !insertmacro POLICY_OPTION "/ACCOUNTNAME" $PolicyName
  !insertmacro POLICY_OPTION "/WORKSPACE" $PolicyWorkspace
  !insertmacro POLICY_OPTION "/LANGUAGE" $PolicyLanguage
  !insertmacro POLICY_OPTION "/PROXY" $PolicyProxyURL
  !insertmacro POLICY_OPTION "/PAC" $R5
  !insertmacro POLICY_OPTION "/CERTIFICATE" $PolicyCert
  !insertmacro POLICY_OPTION "/LOCK" $PolicyLock
  ${If} $1 = 0
    StrCpy $PolicyLock "false"
  ${ElseIf} $PolicyLock != ""
    !insertmacro REFUSE "/LOCK=$PolicyLock is refused: /LOCK takes no value."
  ${Else}
    StrCpy $PolicyLock "true"
  ${EndIf}
  StrCpy $R6 $Policy ; 1: settings one by one
  ${If} $R4 = 1
    StrCpy $Policy 1
  ${EndIf}
  ${If} $Policy = 0
    Return
  ${EndIf}

  ; NSIS keeps 1023 characters of it: a longer one may have lost a value's end.
  StrLen $0 $CMDLINE
  IntOp $0 $0 + 1
  ${If} $0 >= ${NSIS_MAX_STRLEN}
    !insertmacro REFUSE "The command line is too long for setup to read it whole (1023 characters or more)."
  ${EndIf}

  ${If} $R4 = 1
    ${If} $R6 = 1
      !insertmacro REFUSE "/POLICY= is refused with the settings one by one (/SERVICE=, /LANGUAGE=, /PROXY=, /LOCK and the others): the policy file gives them all."
    ${EndIf}
    StrCpy $0 $PolicyFile
    StrCpy $1 "/POLICY"
    Call CheckFile
    StrCpy $PolicyFile $0
    StrCpy $PolicyArgs ' "/POLICY=$PolicyFile"'
    Return
  ${EndIf}

  ${If} $PolicyService != ""
    StrCpy $0 $PolicyService
    StrCpy $1 "/SERVICE"
    Call CheckAddress
    StrCpy $PolicyArgs '$PolicyArgs "/SERVICE=$PolicyService"'
  ${EndIf}
  ${If} $PolicyName != ""
    StrCpy $0 $PolicyName
    StrCpy $1 "/ACCOUNTNAME"
    StrCpy $2 "\"
    Call CheckText
    ${If} $PolicyService == ""
      !insertmacro REFUSE "/ACCOUNTNAME=$PolicyName is refused: it names the account of /SERVICE=, which is not given."
    ${EndIf}
    StrCpy $PolicyArgs '$PolicyArgs "/ACCOUNTNAME=$PolicyName"'
  ${EndIf}
  ${If} $PolicyWorkspace != ""
    ; A whole number above 0, as Agent Desk reads it: digits, no 0 first.
    StrCpy $0 $PolicyWorkspace
    StrCpy $5 "0123456789"
    System::Call 'shlwapi::StrSpnW(w r0, w r5) i .r4'
    StrLen $3 $0
    StrCpy $5 $0 1
    ${If} $4 <> $3
    ${OrIf} $5 == "0"
    ${OrIf} $3 > 18
      !insertmacro REFUSE "/WORKSPACE=$PolicyWorkspace is refused: a workspace is a whole number above 0, such as 123."
    ${EndIf}
    ${If} $PolicyService == ""
      !insertmacro REFUSE "/WORKSPACE=$PolicyWorkspace is refused: it is the workspace of /SERVICE=, which is not given."
    ${EndIf}
    StrCpy $PolicyArgs '$PolicyArgs "/WORKSPACE=$PolicyWorkspace"'
  ${EndIf}
  ${If} $PolicyLanguage != ""
    ; In Agent Desk's spelling, whatever the case given.
    ${If} $PolicyLanguage == "en"
      StrCpy $PolicyLanguage "en"
    ${ElseIf} $PolicyLanguage == "pt-BR"
      StrCpy $PolicyLanguage "pt-BR"
    ${ElseIf} $PolicyLanguage == "es"
      StrCpy $PolicyLanguage "es"
    ${Else}
      !insertmacro REFUSE "/LANGUAGE=$PolicyLanguage is refused: the languages are en, pt-BR and es."
    ${EndIf}
    StrCpy $PolicyArgs '$PolicyArgs "/LANGUAGE=$PolicyLanguage"'
  ${EndIf}
  StrCpy $PolicyProxyMode ""
  ${If} $PolicyProxyURL != ""
  ${AndIf} $R5 != ""
    !insertmacro REFUSE "/PROXY= and /PAC= are refused together: the proxy is one or the other."
  ${EndIf}
  ${If} $PolicyProxyURL == "none"
    StrCpy $PolicyProxyMode "none"
  ${ElseIf} $PolicyProxyURL == "system"
    StrCpy $PolicyProxyMode "system"
  ${EndIf}
  ${If} $PolicyProxyMode != ""
    StrCpy $PolicyProxyURL ""
    StrCpy $PolicyArgs '$PolicyArgs "/PROXY=$PolicyProxyMode"'
  ${ElseIf} $PolicyProxyURL != ""
    StrCpy $0 $PolicyProxyURL
    StrCpy $1 "/PROXY"
    Call CheckAddress
    StrCpy $PolicyProxyMode "manual"
    StrCpy $PolicyArgs '$PolicyArgs "/PROXY=$PolicyProxyURL"'
  ${ElseIf} $R5 != ""
    StrCpy $0 $R5
    StrCpy $1 "/PAC"
    Call CheckAddress
    StrCpy $PolicyProxyMode "pac"
    StrCpy $PolicyProxyURL $R5
    StrCpy $PolicyArgs '$PolicyArgs "/PAC=$PolicyProxyURL"'
  ${EndIf}
  ${If} $PolicyCert != ""
    StrCpy $0 $PolicyCert
    StrCpy $1 "/CERTIFICATE"
    Call CheckFile
    StrCpy $PolicyCert $0
    StrCpy $PolicyArgs '$PolicyArgs "/CERTIFICATE=$PolicyCert"'
  ${EndIf}
  ${If} $PolicyLock == "true"
    ${If} $PolicyService$PolicyLanguage$PolicyProxyMode == ""
      !insertmacro REFUSE "/LOCK is refused: it locks what /SERVICE=, /LANGUAGE=, /PROXY= or /PAC= sets, and none is given."
    ${EndIf}
    StrCpy $PolicyArgs '$PolicyArgs /LOCK'
  ${EndIf}
FunctionEnd

; WriteUTF8: writes the text on the stack to the file open as $R6, in UTF-8
; as Agent Desk reads it (FileWrite would write Windows' ANSI code page);
; sets the error flag when it could not.
Function WriteUTF8
  Exch $0
  Push $1
  Push $2
  Push $3
  ; Its length in UTF-8 with the closing 0, then the UTF-8 itself.
  System::Call 'kernel32::WideCharToMultiByte(i 65001, i 0, w r0, i -1, p 0, i 0, p 0, p 0) i .r1'
  System::Alloc $1
  Pop $2
  System::Call 'kernel32::WideCharToMultiByte(i 65001, i 0, w r0, i -1, p r2, i r1, p 0, p 0) i .r1'
  IntOp $1 $1 - 1
  StrCpy $3 0
  System::Call 'kernel32::WriteFile(p R6, p r2, i r1, *i .r3, p 0) i .r0'
  System::Free $2
  ${If} $0 = 0
  ${OrIf} $3 <> $1
    SetErrors
  ${EndIf}
  Pop $3
  Pop $2
  Pop $1
  Pop $0
FunctionEnd
!macro JSON text
  Push `${text}`
  Call WriteUTF8
!macroend

; JSONPath: $0 = the path $0 with each \ doubled, as a JSON string holds it.
Function JSONPath
  Push $1
  Push $2
  Push $3
  StrCpy $1 ""
  StrCpy $2 0
  ${Do}
    StrCpy $3 $0 1 $2
    ${If} $3 == ""
      ${Break}
    ${ElseIf} $3 == "\"
      StrCpy $3 "\\"
    ${EndIf}
    StrCpy $1 "$1$3"
    IntOp $2 $2 + 1
  ${Loop}
  StrCpy $0 $1
  Pop $3
  Pop $2
  Pop $1
FunctionEnd

; PutInPlace: $R5\NAME.new becomes $R5\NAME (NAME on the stack), replacing
; it in one step; sets the error flag when it could not.
Function PutInPlace
  Exch $0
  Push $1
  Push $2
  StrCpy $1 "$R5\$0.new"
  StrCpy $2 "$R5\$0"
  System::Call 'kernel32::MoveFileExW(w r1, w r2, i ${MOVEFILE_REPLACE_WRITE}) i .r1'
  ${If} $1 = 0
    SetErrors
  ${EndIf}
  Pop $2
  Pop $1
  Pop $0
FunctionEnd

; CopyInPlace: copies the file FROM to $R5\NAME (Push FROM, Push NAME), by
; way of NAME.new; sets the error flag when it could not.
Function CopyInPlace
  Exch $1 ; NAME
  Exch
  Exch $0 ; FROM
  Push $2
  StrCpy $2 "$R5\$1.new"
  System::Call 'kernel32::CopyFileW(w r0, w r2, i 0) i .r2'
  ${If} $2 = 0
    SetErrors
  ${Else}
    Push $1
    Call PutInPlace
  ${EndIf}
  Pop $2
  Pop $0
  Pop $1
FunctionEnd

; WritePolicy: the organisation's settings from the command line, in
; %ProgramData%\Agent Desk: the /POLICY= file copied there, or policy.json
; written from the settings one by one (and the /CERTIFICATE= file copied
; as company-ca.pem), replacing what is there. Each file is written under
; a new name first, then put in place, so an Agent Desk starting meanwhile
; reads the old file or the new one, never half of one. Setup stops if it
; cannot (Abort), before the program is installed.
Function WritePolicy
  SetShellVarContext all ; $APPDATA is %ProgramData% then
  StrCpy $R5 "$APPDATA\${APP}"
  StrCpy $R6 ""
  DetailPrint "The organisation's settings: $R5\${POLICY_FILE}"
  ClearErrors
  CreateDirectory "$R5"
  IfErrors failed
  ${If} $PolicyFile != ""
    Push $PolicyFile
    Push "${POLICY_FILE}"
    Call CopyInPlace
    IfErrors failed
    Return
  ${EndIf}

  ${If} $PolicyCert != ""
    Push $PolicyCert
    Push "${POLICY_CERT}"
    Call CopyInPlace
    IfErrors failed
  ${EndIf}
  FileOpen $R6 "$R5\${POLICY_FILE}.new" w
  IfErrors failed
  ; The values need no escaping (PolicyOptions refused ", \ and control
  ; characters), but for the backslashes of the certificate's path.
  StrCpy $R7 "{$\r$\n  " ; what comes before the next setting
  ${If} $PolicyService != ""
    !insertmacro JSON '$R7"accounts": [$\r$\n    {'
    ${If} $PolicyName != ""
      !insertmacro JSON '"name": "$PolicyName", '
    ${EndIf}
    !insertmacro JSON '"base_url": "$PolicyService"'
    ${If} $PolicyWorkspace != ""
      !insertmacro JSON ', "workspace_id": "$PolicyWorkspace"'
    ${EndIf}
    !insertmacro JSON ', "locked": $PolicyLock}$\r$\n  ]'
    StrCpy $R7 ",$\r$\n  "
  ${EndIf}
  ${If} $PolicyLanguage != ""
    !insertmacro JSON '$R7"language": {"value": "$PolicyLanguage", "locked": $PolicyLock}'
    StrCpy $R7 ",$\r$\n  "
  ${EndIf}
  ${If} $PolicyProxyMode != ""
    !insertmacro JSON '$R7"proxy": {"mode": "$PolicyProxyMode"'
    ${If} $PolicyProxyURL != ""
      !insertmacro JSON ', "url": "$PolicyProxyURL"'
    ${EndIf}
    !insertmacro JSON ', "locked": $PolicyLock}'
    StrCpy $R7 ",$\r$\n  "
  ${EndIf}
  ${If} $PolicyCert != ""
    StrCpy $0 "$R5\${POLICY_CERT}"
    Call JSONPath
    !insertmacro JSON '$R7"certificates": ["$0"]'
  ${EndIf}
  !insertmacro JSON "$\r$\n}$\r$\n"
  FileClose $R6
  StrCpy $R6 ""
  IfErrors failed
  Push "${POLICY_FILE}"
  Call PutInPlace
  IfErrors failed
  Return

failed:
  ${If} $R6 != ""
    FileClose $R6
  ${EndIf}
  Delete "$R5\${POLICY_FILE}.new"
  Delete "$R5\${POLICY_CERT}.new"
  MessageBox MB_OK|MB_ICONSTOP "Setup could not write the organisation's settings to $R5, so it has not installed ${APP}." /SD IDOK
  Abort "Setup could not write the organisation's settings to $R5."
FunctionEnd

; ---- Setup ------------------------------------------------------------------

Function .onInit
  StrCpy $CmdDir $INSTDIR
  ${GetParameters} $CmdArgs

  ; Default: update what is there (the user's own install first), else
  ; install for this user alone.
  StrCpy $AllUsers 0
  ReadRegStr $R1 HKCU "${UNINST_KEY}" "InstallLocation"
  ReadRegStr $R2 HKLM "${UNINST_KEY}" "InstallLocation"
  ${If} $R1 == ""
  ${AndIf} $R2 != ""
    StrCpy $AllUsers 1
  ${EndIf}
  StrCpy $ModeFixed 0
  !insertmacro CMD_OPTION "/ALLUSERS"
  ${If} $1 > 0
    StrCpy $AllUsers 1
    StrCpy $ModeFixed 1
  ${EndIf}
  !insertmacro CMD_OPTION "/CURRENTUSER"
  ${If} $1 > 0
    StrCpy $AllUsers 0
    StrCpy $ModeFixed 1
  ${EndIf}
  ; The organisation's settings go to %ProgramData%: for everyone. A
  ; refused one ends setup here, before anything is written.
  Call PolicyOptions
  ${If} $Policy == 1
    ${If} $ModeFixed == 1
    ${AndIf} $AllUsers == 0
      Push "/CURRENTUSER: the organisation's settings are for everyone on the computer (/ALLUSERS)."
      Call Refuse
    ${EndIf}
    StrCpy $AllUsers 1
    StrCpy $ModeFixed 1
  ${EndIf}
  Call ApplyMode

  ; The desktop shortcut: on for a first install (staff look for the app
  ; on the desktop); on an update, as the user left it.
  StrCpy $WantDesktop 1
  ${If} $Upgrade == 1
  ${AndIfNot} ${FileExists} "$DESKTOP\${APP}.lnk"
    StrCpy $WantDesktop 0
  ${EndIf}
  !insertmacro CMD_OPTION "/NODESKTOP"
  ${If} $1 > 0
    StrCpy $WantDesktop 0
  ${EndIf}
  !insertmacro CMD_OPTION "/DESKTOP"
  ${If} $1 > 0
    StrCpy $WantDesktop 1
  ${EndIf}

  ${If} $AllUsers == 1
  ${AndIf} $ModeFixed == 1
    Call IsAdmin
    ${If} $0 != 1
      ${If} ${Silent}
        SetErrorLevel ${ERROR_ELEVATION_REQUIRED}
        Quit
      ${EndIf}
      Call Elevate
    ${EndIf}
  ${EndIf}
FunctionEnd

; ApplyMode: shell folders, registry root and install folder for $AllUsers.
Function ApplyMode
  ${If} $AllUsers == 1
    SetShellVarContext all
    ReadRegStr $R9 HKLM "${UNINST_KEY}" "InstallLocation"
    StrCpy $R8 "$PROGRAMFILES64\${APP}"
  ${Else}
    SetShellVarContext current
    ReadRegStr $R9 HKCU "${UNINST_KEY}" "InstallLocation"
    StrCpy $R8 "$LOCALAPPDATA\Programs\${APP}"
  ${EndIf}
  StrCpy $Upgrade 0
  ${If} $R9 != ""
    StrCpy $Upgrade 1
  ${EndIf}
  ${If} $CmdDir != ""
    StrCpy $INSTDIR $CmdDir
  ${ElseIf} $R9 != ""
    StrCpy $INSTDIR $R9
  ${Else}
    StrCpy $INSTDIR $R8
  ${EndIf}
FunctionEnd

; Elevate: starts this setup again with administrator rights, for everyone,
; and ends this one. Windows asks the user (UAC); if they say no, setup
; stays open and says why (or, given the organisation's settings, which
; need the rights, says why and ends).
Function Elevate
  ${If} $WantDesktop == 1
    StrCpy $R7 "/ALLUSERS /DESKTOP"
  ${Else}
    StrCpy $R7 "/ALLUSERS /NODESKTOP"
  ${EndIf}
  StrCpy $R7 "$R7$PolicyArgs"
  ${If} $CmdDir != ""
    StrCpy $R7 "$R7 /D=$CmdDir"
  ${EndIf}
  ClearErrors
  ExecShell "runas" "$EXEPATH" "$R7"
  ${If} ${Errors}
    ${If} $Policy == 1 ; for everyone only
      MessageBox MB_OK|MB_ICONEXCLAMATION "Setup did not get administrator rights, so it cannot install ${APP} with the organisation's settings.$\r$\n$\r$\nAsk your administrator." /SD IDOK
      SetErrorLevel ${ERROR_ELEVATION_REQUIRED}
      Quit
    ${EndIf}
    MessageBox MB_OK|MB_ICONEXCLAMATION "Setup did not get administrator rights, so it cannot install ${APP} for everyone.$\r$\n$\r$\nChoose $\"Only me$\", or ask your administrator." /SD IDOK
    StrCpy $AllUsers 0
    StrCpy $ModeFixed 0
    Call ApplyMode
    Return
  ${EndIf}
  Quit
FunctionEnd

Function OptionsPage
  ${If} $ModeFixed == 1 ; chosen on the command line, or by the elevated restart
    Abort
  ${EndIf}
  !insertmacro MUI_HEADER_TEXT "Choose how to install" "Who uses ${APP} on this computer, and where to find it."
  nsDialogs::Create 1018
  Pop $0
  ${NSD_CreateLabel} 0 0 100% 12u "Install ${APP} for:"
  Pop $0
  ${NSD_CreateFirstRadioButton} 10u 14u -10u 14u "&Only me (recommended: no administrator needed)"
  Pop $1
  ${NSD_CreateAdditionalRadioButton} 10u 30u -10u 14u "&Everyone who uses this computer (needs an administrator)"
  Pop $RadioAll
  ${If} $AllUsers == 1
    ${NSD_Check} $RadioAll
  ${Else}
    ${NSD_Check} $1
  ${EndIf}
  ${NSD_CreateCheckBox} 0 58u 100% 14u "Put a shortcut to ${APP} on the &desktop"
  Pop $DesktopBox
  ${If} $WantDesktop == 1
    ${NSD_Check} $DesktopBox
  ${EndIf}
  ${NSD_CreateLabel} 0 84u 100% 30u "${APP} is always in the Start menu. Your settings, accounts and history are kept in your own user folder either way, and stay when ${APP} is updated or removed."
  Pop $0
  nsDialogs::Show
FunctionEnd

Function OptionsLeave
  ${NSD_GetState} $DesktopBox $0
  ${If} $0 == ${BST_CHECKED}
    StrCpy $WantDesktop 1
  ${Else}
    StrCpy $WantDesktop 0
  ${EndIf}
  ${NSD_GetState} $RadioAll $0
  ${If} $0 == ${BST_CHECKED}
    StrCpy $AllUsers 1
    Call IsAdmin
    ${If} $0 != 1
      Call Elevate ; quits when Windows gave the rights
      Abort        ; else stay on this page
    ${EndIf}
  ${Else}
    StrCpy $AllUsers 0
  ${EndIf}
  Call ApplyMode
FunctionEnd

Function DirectoryPre
  ${If} $Upgrade == 1 ; an update goes where the program is
    Abort
  ${EndIf}
FunctionEnd

Section "-Agent Desk"
  ${If} $Policy == 1
    Call WritePolicy
  ${EndIf}
  SetOutPath "$INSTDIR"
  Call CloseApp
  File "/oname=agentdesk.exe" "${EXE}"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateShortcut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\agentdesk.exe" "" "$INSTDIR\agentdesk.exe" 0 SW_SHOWNORMAL "" "${ABOUT}"
  ${If} $WantDesktop == 1
    CreateShortcut "$DESKTOP\${APP}.lnk" "$INSTDIR\agentdesk.exe" "" "$INSTDIR\agentdesk.exe" 0 SW_SHOWNORMAL "" "${ABOUT}"
  ${Else}
    Delete "$DESKTOP\${APP}.lnk"
  ${EndIf}

  ; "Apps & features". SHCTX is HKLM for everyone, HKCU for one user.
  WriteRegStr SHCTX "${UNINST_KEY}" "DisplayName" "${APP}"
  WriteRegStr SHCTX "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\agentdesk.exe,0"
  WriteRegStr SHCTX "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr SHCTX "${UNINST_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr SHCTX "${UNINST_KEY}" "URLInfoAbout" "${WEBSITE}"
  WriteRegStr SHCTX "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  ${If} $AllUsers == 1
    StrCpy $0 " /ALLUSERS"
  ${Else}
    StrCpy $0 ""
  ${EndIf}
  WriteRegStr SHCTX "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"$0'
  WriteRegStr SHCTX "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe"$0 /S'
  WriteRegDWORD SHCTX "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD SHCTX "${UNINST_KEY}" "NoRepair" 1
  ${GetTime} "" "L" $0 $1 $2 $3 $4 $5 $6
  WriteRegStr SHCTX "${UNINST_KEY}" "InstallDate" "$2$1$0"
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD SHCTX "${UNINST_KEY}" "EstimatedSize" $0
SectionEnd

; The finish page's "Start Agent Desk now". Installed for everyone, setup
; runs as administrator: Explorer starts the app as the signed-in user
; instead, so the app never runs elevated.
Function StartApp
  ${If} $AllUsers == 1
    Exec '"$WINDIR\explorer.exe" "$INSTDIR\agentdesk.exe"'
  ${Else}
    Exec '"$INSTDIR\agentdesk.exe"'
  ${EndIf}
FunctionEnd

; ---- Uninstaller ------------------------------------------------------------

Function un.onInit
  ${GetParameters} $R0
  StrCpy $RemoveData 0
  ClearErrors
  ${GetOptions} $R0 "/REMOVEDATA" $R1
  ${IfNot} ${Errors}
    StrCpy $RemoveData 1
  ${EndIf}

  ; Installed for everyone: the HKLM entry's uninstall command says
  ; /ALLUSERS; started by hand from the folder, the HKLM entry names it.
  StrCpy $AllUsers 0
  ReadRegStr $R1 HKLM "${UNINST_KEY}" "InstallLocation"
  ${If} $R1 != ""
  ${AndIf} $R1 == $INSTDIR
    StrCpy $AllUsers 1
  ${EndIf}
  ClearErrors
  ${GetOptions} $R0 "/ALLUSERS" $R1
  ${IfNot} ${Errors}
    StrCpy $AllUsers 1
  ${EndIf}

  ${If} $AllUsers == 1
    SetShellVarContext all
    Call un.IsAdmin
    ${If} $0 != 1
      ${If} ${Silent}
        SetErrorLevel ${ERROR_ELEVATION_REQUIRED}
        Quit
      ${EndIf}
      ${If} $RemoveData == 1
        StrCpy $R2 "/ALLUSERS /REMOVEDATA"
      ${Else}
        StrCpy $R2 "/ALLUSERS"
      ${EndIf}
      ClearErrors
      ExecShell "runas" "$INSTDIR\uninstall.exe" "$R2"
      ${If} ${Errors}
        MessageBox MB_OK|MB_ICONEXCLAMATION "${APP} is installed for everyone on this computer; removing it needs an administrator."
      ${EndIf}
      Quit
    ${EndIf}
  ${Else}
    SetShellVarContext current
  ${EndIf}
FunctionEnd

Function un.RemovePage
  !insertmacro MUI_HEADER_TEXT "Uninstall ${APP}" "Remove ${APP} from this computer."
  GetDlgItem $0 $HWNDPARENT 1
  SendMessage $0 ${WM_SETTEXT} 0 "STR:$(^UninstallBtn)"
  nsDialogs::Create 1018
  Pop $0
  ${NSD_CreateLabel} 0 0 100% 24u "${APP} will be removed from $INSTDIR, the Start menu and the desktop."
  Pop $0
  ${NSD_CreateCheckBox} 0 30u 100% 14u "Also remove my &settings and history"
  Pop $DataBox
  ${If} $RemoveData == 1
    ${NSD_Check} $DataBox
  ${EndIf}
  ${NSD_CreateLabel} 12u 46u -12u 54u "Your accounts and saved API keys, your chats, runs and memories, and the downloaded previews. Without this, they stay on this computer, and ${APP} finds them again when it is installed later."
  Pop $0
  nsDialogs::Show
FunctionEnd

Function un.RemovePageLeave
  ${NSD_GetState} $DataBox $0
  ${If} $0 == ${BST_CHECKED}
    StrCpy $RemoveData 1
  ${Else}
    StrCpy $RemoveData 0
  ${EndIf}
FunctionEnd

; un.BaseDir: $0 = the folder the XDG variable named on the stack points
; to, else the default given second (as github.com/adrg/xdg picks it).
Function un.BaseDir
  Exch $1 ; default
  Exch
  Exch $2 ; variable
  ReadEnvStr $0 $2
  ${If} $0 == ""
    StrCpy $0 $1
  ${EndIf}
  Pop $2
  Pop $1
FunctionEnd
!macro BASE_DIR var default
  Push "${var}"
  Push "${default}"
  Call un.BaseDir
!macroend

; un.RemoveUserData: what Agent Desk keeps for the user running the
; uninstaller: settings (settings.json, keys.json), history (history.db),
; state and cache, each in its XDG folder (on Windows %LOCALAPPDATA% and
; %LOCALAPPDATA%\cache unless XDG_* say otherwise), and the API keys it
; saved in Windows Credential Manager.
Function un.RemoveUserData
  SetShellVarContext current
  !insertmacro BASE_DIR XDG_CONFIG_HOME "$LOCALAPPDATA"
  RMDir /r "$0\${DATA_DIR}"
  !insertmacro BASE_DIR XDG_DATA_HOME "$LOCALAPPDATA"
  RMDir /r "$0\${DATA_DIR}"
  !insertmacro BASE_DIR XDG_STATE_HOME "$LOCALAPPDATA"
  RMDir /r "$0\${DATA_DIR}"
  !insertmacro BASE_DIR XDG_CACHE_HOME "$LOCALAPPDATA\cache"
  RMDir /r "$0\${DATA_DIR}"
  RMDir "$LOCALAPPDATA\cache" ; only when nothing else is in it
  ; Fyne's own preferences folder for the app.
  RMDir /r "$APPDATA\fyne\com.agentdesk.app"
  RMDir "$APPDATA\fyne"

  ; Credential Manager: every generic credential "agentdesk:<account>".
  System::Call 'advapi32::CredEnumerateW(w "${KEY_FILTER}", i 0, *i .r1, *p .r2) i .r0'
  ${If} $0 <> 0
    StrCpy $3 0
    ${DoWhile} $3 < $1
      IntOp $4 $3 * 8
      IntPtrOp $5 $2 + $4
      System::Call '*$5(p .r6)'              ; CREDENTIALW*
      System::Call '*$6(i .r9, i .r8, p .r7)' ; Flags, Type, TargetName
      System::Call 'advapi32::CredDeleteW(p r7, i r8, i 0)'
      IntOp $3 $3 + 1
    ${Loop}
    System::Call 'advapi32::CredFree(p r2)'
  ${EndIf}

  ${If} $AllUsers == 1
    SetShellVarContext all
  ${EndIf}
FunctionEnd

Section "Uninstall"
  Call un.CloseApp ; closes Agent Desk and deletes agentdesk.exe
  Delete "$INSTDIR\uninstall.exe"
  ; Not RMDir /r: the folder may hold files that are not Agent Desk's.
  RMDir "$INSTDIR"
  Delete "$SMPROGRAMS\${APP}.lnk"
  Delete "$DESKTOP\${APP}.lnk"
  DeleteRegKey SHCTX "${UNINST_KEY}"
  ${If} $RemoveData == 1
    Call un.RemoveUserData
  ${EndIf}
SectionEnd
