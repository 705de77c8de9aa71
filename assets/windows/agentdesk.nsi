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
; The uninstaller (uninstall.exe in the install folder):
;   /S                 silent; keeps settings and history
;   /REMOVEDATA        also remove settings, history and the saved API keys
;   /ALLUSERS          the install for everyone (its registry entry passes it;
;                      silent: from an elevated prompt, else exit code 740)
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

; ---- Setup ------------------------------------------------------------------

Function .onInit
  StrCpy $CmdDir $INSTDIR
  ${GetParameters} $R0

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
  ClearErrors
  ${GetOptions} $R0 "/ALLUSERS" $R3
  ${IfNot} ${Errors}
    StrCpy $AllUsers 1
    StrCpy $ModeFixed 1
  ${EndIf}
  ClearErrors
  ${GetOptions} $R0 "/CURRENTUSER" $R3
  ${IfNot} ${Errors}
    StrCpy $AllUsers 0
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
  ClearErrors
  ${GetOptions} $R0 "/NODESKTOP" $R3
  ${IfNot} ${Errors}
    StrCpy $WantDesktop 0
  ${EndIf}
  ClearErrors
  ${GetOptions} $R0 "/DESKTOP" $R3
  ${IfNot} ${Errors}
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
; stays open and says why.
Function Elevate
  ${If} $WantDesktop == 1
    StrCpy $R7 "/ALLUSERS /DESKTOP"
  ${Else}
    StrCpy $R7 "/ALLUSERS /NODESKTOP"
  ${EndIf}
  ${If} $CmdDir != ""
    StrCpy $R7 "$R7 /D=$CmdDir"
  ${EndIf}
  ClearErrors
  ExecShell "runas" "$EXEPATH" "$R7"
  ${If} ${Errors}
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
